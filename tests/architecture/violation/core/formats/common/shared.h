#pragma once

#include "two.h"
