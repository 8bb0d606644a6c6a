#pragma once
#include <json-c/json.h>
