// Only the header matters (it declares libFuzzer's driver); SwiftPM needs one source file.
#include "CFuzzDriver.h"
