#pragma once
#include <cstddef>

constexpr int NX = 512;
constexpr int NY = 512;
