#ifndef CLIBPSL_H
#define CLIBPSL_H
#include <libpsl.h>
#endif
