// What others did on the machine while a run measured, as its traced requests
// or its idle windows before the rounds saw it: the writes a second others made
// on the disk and the share of the CPUs' time they used, and from how much each
// is called busy. The answer line and compare read a run's conditions from
// here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lib/result/report.h"

namespace alignbench {

// A disk is busy from this many writes a second by others: an idle ext4
// commits its journal about every 5 s (0.2 writes/s), a neighbour syncing a
// log does tens.
inline constexpr double kBusyWritesPerSecond = 5;

// The CPUs are busy from this share of their time used by others. On this
// project's 2-CPU machine (docs/measurements.md), with the disk's counters
// quiet throughout: nothing else, 0-2 %; one process spinning beside the Derby
// case, 50 % and writes up to 1.8 times as slow; two, 100 %, writes 2.3 times
// as slow and 3-7 of 13 pairs within ±5 after 57 s.
inline constexpr double kBusyCpuShare = 0.25;

// Others' writes per second on the disk while the pair was measured: where
// a variant's requests were traced, those neither its file's nor its
// filesystem's (device_requests.others: a filesystem's own background writes
// are not others'); else what the idle windows before the pair's rounds saw.
// The highest of the two variants; unknown without a device.
std::optional<double> OthersWritesPerSecond(const PairResult& pair);

// The most writes a second by others that the idle windows saw while any of
// `pairs` was measured; 0 where none was sampled.
double BusiestWritesPerSecond(const std::vector<const PairResult*>& pairs);

// The largest share of the CPU time others used while any of `pairs` was
// measured; nullopt where none was sampled.
std::optional<double> BusiestCpuShare(
    const std::vector<const PairResult*>& pairs);

// The heading compare prints above each run's ConditionsText.
inline constexpr const char* kConditionsHeading =
    "run conditions (the idle windows before the rounds; traced where said):";

// A whole run's conditions in words, for compare: "others' writes 0.2/s,
// others' CPU 2 %", each "(busy)" from its threshold, the writes "traced"
// where every pair's requests were, "not sampled" where the run has no idle
// windows (a file from before they were recorded, no device).
std::string ConditionsText(const Report& report);

// Whether others kept the disk or the CPUs busy while the run measured.
bool BusyConditions(const Report& report);

}  // namespace alignbench
