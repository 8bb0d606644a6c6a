#pragma once
#include <sys/capability.h>
