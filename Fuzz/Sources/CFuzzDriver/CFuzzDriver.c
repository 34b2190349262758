// Nothing to compile: the module only declares libFuzzer's driver (include/CFuzzDriver.h).
#include "CFuzzDriver.h"
