// The precompiled header of the tests (tests/CMakeLists.txt: runlane_test_pch):
// what nearly every test includes and takes longest to parse. Nothing of
// Runlane's own: a change to a header of ours must not rebuild every test.
#pragma once

#include <QtTest>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <vector>
