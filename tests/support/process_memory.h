/*
 * The process's memory as the soak (tests/soak.c) judges it: the peak and
 * current resident set, and glibc's free memory handed back first.
 */
#ifndef SGK_TESTS_PROCESS_MEMORY_H
#define SGK_TESTS_PROCESS_MEMORY_H

/* The peak resident set so far (getrusage's ru_maxrss), in KiB. */
long process_peak_kib(void);
/* The resident set now, in KiB (/proc/self/statm; -1 where there is none). */
long process_resident_kib(void);
/* Returns malloc's free memory to the system (glibc's malloc_trim; nothing
   elsewhere), so that what stays resident is what is still allocated. */
void process_trim(void);

#endif
