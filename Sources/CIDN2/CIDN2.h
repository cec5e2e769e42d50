#ifndef CIDN2_H
#define CIDN2_H
#include <idn2.h>
#endif
