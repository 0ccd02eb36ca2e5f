/* pick.h — which variants a command runs, the same way for every command:
 * the command's own --variant names, else the variant forced before the
 * command (`posebench --variant NAME CMD`) or by POSEBENCH_VARIANT, else the
 * command's default (every native variant this CPU runs, or dispatch's
 * choice). pick_init checks the environment first (env.h: every POSEBENCH_*
 * variable), so a typo there is an error naming the value, never silently ignored. */
#ifndef CLI_PICK_H
#define CLI_PICK_H

#include <stdint.h>
#include "posebench/posebench.h"

/* Check the environment and apply the global --variant (NULL: none).
 * 0, or 2 (EXIT_USAGE) after a message naming the bad value and the valid ones. */
int pick_init(const char *global_variant);
/* The forced variant's name (global --variant, else POSEBENCH_VARIANT), or NULL. */
const char *pick_forced(void);
/* The default thread count of --threads: POSEBENCH_THREADS, else every CPU this process may run on. */
int pick_threads(void);
/* The sampling op of a --sampler choice (linear|cubic|turns: its index in that list). */
pb_op pick_sampler(int choice);
#define PICK_SAMPLER_CHOICES "linear|cubic|turns"
#define PICK_SAMPLER_HELP "sample_linear, sample_cubic, or sample_linear_turns (each clip's key-to-key turns made once)"
/* The features POSEBENCH_DISABLE hides (0: none). */
uint32_t pick_disabled(void);
/* 1 if v runs on this CPU once POSEBENCH_DISABLE is ignored (v fails pb_variant_check only because of it). */
int pick_only_disabled(const pb_variant *v);

enum {
    PICK_DISPATCH = 0,        /* default: the variant dispatch picks (one) */
    PICK_ALL_NATIVE = 1,      /* default: every native variant this CPU runs */
    PICK_EMULATED = 2         /* also the -emu builds: all of them by default; an ISA name selects its -emu too */
};
/* Variants for command `cmd`: names[0..nnames) (the command's --variant; none:
 * the forced one, else the default of `flags`). Returns how many were put in
 * out (at most max), or -1 after a message "posebench <cmd>: ...". */
int pick_variants(const char *cmd, const char *const *names, int nnames, int flags, const pb_variant **out, int max);
/* A --variant value naming a row or an ISA (validate's filter). 0, or -1 after a message. */
int pick_check_name(const char *cmd, const char *name);

#endif
