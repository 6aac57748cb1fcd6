/* a PMNS with optional subtrees */
#define HAVE_PERFEVENT
#define PERFEVENT 127
root {
    hinv
#ifdef HAVE_PERFEVENT
    perfevent
#endif
#ifdef HAVE_BPF
    bpf
#endif
}
hinv {
    ncpu	60:0:32	/* a metric */
}
#ifdef HAVE_PERFEVENT
perfevent {
    version	PERFEVENT:0:0
}
#endif
