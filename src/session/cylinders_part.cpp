// The cylinders laid out as one set, with the layout's progress shown.
#include "pcv/session/cylinders_part.hpp"

#include "pcv/core/number_text.hpp"
#include "pcv/demo/cylinder_producer.hpp"

namespace pcv {

CylindersPart::CylindersPart(const DemoCylinders& demo, Renderer& renderer,
                             const SessionReport& report)
    : renderer_(renderer), bounds_(demoCylindersBounds(demo)) {
  // Laying out hundreds of millions of points takes minutes on the CPU: say how far it is.
  LayoutProgress progress;
  auto shown = report.show("laying out " + countText(demo.pointCount) + " cylinder points", nullptr,
                           [&progress] { return progress.fraction(); });
  set_ = renderer_.addSet(CylinderProducer(makeCylinderSet(demo.seed), demo.pointCount),
                          {.progress = &progress});
}

CylindersPart::~CylindersPart() {
  renderer_.removeSet(set_);
}

}  // namespace pcv
