/* nested conditionals inside false groups */
#ifdef NOPE
hidden-1
#ifdef NOPE
hidden-2
#else
hidden-3
#endif
#ifndef NOPE
hidden-4
#ifdef NOPE
#else
hidden-5
#endif
#endif
hidden-6
#else
shown-1
#ifndef NOPE
shown-2
#ifdef NOPE
hidden-7
#else
shown-3
#endif
#endif
#endif
end
