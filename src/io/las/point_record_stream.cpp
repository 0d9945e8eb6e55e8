#include <algorithm>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/point_records.hpp"

namespace pcv {

uint64_t PointRecordStream::read(uint64_t maxPoints, uint8_t* into) {
  if (unreadCount_ == 0) unreadCount_ = next(maxPoints, unread_);
  const uint64_t count = std::min(maxPoints, unreadCount_);
  const uint64_t bytes = count * format_.recordLength;
  // On all cores: a caller gathering a whole input first touches its buffer's pages here.
  copyInParallel(into, unread_, bytes);
  unread_ += bytes;
  unreadCount_ -= count;
  return count;
}

void PointRecordStream::readAt(uint64_t, uint64_t, uint8_t*) const {
  throw Error("this stream of point records is read in order only (randomAccess() is false)");
}

}  // namespace pcv
