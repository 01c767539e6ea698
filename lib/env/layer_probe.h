// Every layer's unit, read from the machine: the page, the filesystem's
// block, fragment and (per type) cluster, stripe or node, and below it the
// partition's start, a loop device's offset, the device's alignment_offset
// and md/dm geometry. What a layer does not say stays unknown, and where it
// could have said, units_unknown says why; off_grid says in words where a
// layer starts off the grid of the one below (OffGrid in layer_units.h).
// Nothing here writes; the ext4 superblock is read from the block device,
// which needs root.
#pragma once

#include "lib/env/target_info.h"

namespace alignbench {

// Fills the units of `info`, whose mount and device are probed already.
void ProbeLayerUnits(TargetInfo& info);

}  // namespace alignbench
