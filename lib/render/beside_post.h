// compare with the 2013 post: its ioping summaries beside a run's, directory
// kind by kind (a network filesystem, a local disk, memory), and the post's
// question, how much longer a request takes than on the local disk, answered
// for both. The post read 1 MiB; a run wrote and synced: that is said first.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "lib/result/ioping_post.h"
#include "lib/result/report.h"

namespace alignbench {

void RenderBesidePost(std::ostream& out, const IopingPost& post,
                      const std::vector<Report>& runs);

}  // namespace alignbench
