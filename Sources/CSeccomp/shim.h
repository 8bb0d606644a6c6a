#pragma once
#include <seccomp.h>
