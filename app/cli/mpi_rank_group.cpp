// The MPI ranks of a `pcv convert --tiles` run: initialised when the command joins the group and
// finalised when it leaves, so no other command starts MPI. Only the command's thread calls MPI
// (MPI_THREAD_FUNNELED); the conversions' threads never do.
#include <mpi.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "pcv/core/error.hpp"
#include "rank_group.hpp"

namespace pcv::app {
namespace {

void check(int status, const char* call) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(status, text, &length);
  throw Error(std::string(call) + " failed: " + std::string(text, size_t(length)));
}

class MpiRanks final : public RankGroup {
 public:
  MpiRanks() {
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    // The ranks on this machine: those that can share memory with this one.
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
    MPI_Comm_size(local, &localSize_);
    MPI_Comm_free(&local);
  }
  ~MpiRanks() override { MPI_Finalize(); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int localSize() const override { return localSize_; }

  std::vector<std::string> gatherToRoot(const std::string& text) override {
    const int length = int(text.size());
    std::vector<int> lengths(rank_ == 0 ? size_t(size_) : 0);
    check(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD),
          "MPI_Gather");
    std::vector<int> offsets(lengths.size(), 0);
    int total = 0;
    for (size_t r = 0; r < lengths.size(); ++r) {
      offsets[r] = total;
      total += lengths[r];
    }
    std::string all(size_t(total), '\0');
    check(MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                      MPI_CHAR, 0, MPI_COMM_WORLD),
          "MPI_Gatherv");
    std::vector<std::string> texts;
    for (size_t r = 0; r < lengths.size(); ++r) {
      texts.push_back(all.substr(size_t(offsets[r]), size_t(lengths[r])));
    }
    return texts;
  }

  bool anyRank(bool value) override {
    int mine = value ? 1 : 0, any = 0;
    check(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    return any != 0;
  }

  [[noreturn]] void abortAll(int status) override {
    MPI_Abort(MPI_COMM_WORLD, status);
    std::exit(status);
  }

 private:
  int rank_ = 0;
  int size_ = 1;
  int localSize_ = 1;
};

}  // namespace

std::unique_ptr<RankGroup> joinMpiRanks() {
  return std::make_unique<MpiRanks>();
}

}  // namespace pcv::app
