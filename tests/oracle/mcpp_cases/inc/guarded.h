#ifndef GUARDED_H
#define GUARDED_H
#define GUARDED_VALUE 42
guarded-body
#endif
