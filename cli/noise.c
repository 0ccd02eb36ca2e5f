/* noise.c — the noise warning's check, marker, note and JSON (noise.h). */
#include <math.h>
#include <stdio.h>

#include "noise.h"

int noise_check(double spread, double parts, double whole)
{
    int f = 0;
    if (spread > NOISE_LIMIT) f |= NOISE_SPREAD;   /* false for NaN */
    if (whole > 0 && fabs(whole - parts) > NOISE_LIMIT * whole) f |= NOISE_STAGE_SUM;
    return f;
}

double noise_spread(double median, double min, double max)
{
    return median > 0 ? (max - min) / median : NAN;
}

int noise_stages(const double *stage, int n, double total, double spread)
{
    double sum = 0;
    for (int s = 0; s < n; s++) sum += stage[s];
    return noise_check(spread, sum, total);
}

char noise_mark(int flags, int test)
{
    return flags & test ? '!' : ' ';
}

void noise_note(int flags)
{
    if (flags & NOISE_ANY)
        printf("  !: noisy, over %.0f%%: %s%s%s: machine busy: measure again with more --reps\n", 100 * NOISE_LIMIT,
               flags & NOISE_SPREAD ? "the spread of the repetitions" : "", (flags & NOISE_ANY) == NOISE_ANY ? ", " : "",
               flags & NOISE_STAGE_SUM ? "the stage sum against the total" : "");
}

cJSON *noise_json(cJSON *obj, int flags)
{
    const char *names[2] = { NULL, NULL };
    int n = 0;
    if (flags & NOISE_SPREAD) names[n++] = "spread";
    if (flags & NOISE_STAGE_SUM) names[n++] = "stage_sum";
    cJSON *a = cJSON_CreateStringArray(names, n);
    if (!a || !cJSON_AddItemToObject(obj, "noisy", a)) {
        cJSON_Delete(a);
        return NULL;
    }
    return a;
}

int noise_config_json(cJSON *config)
{
    return cJSON_AddNumberToObject(config, "noise_limit", NOISE_LIMIT) &&
                   cJSON_AddStringToObject(config, "noise_rule", "a row's \"noisy\" names the tests over noise_limit: "
                                                                 "spread, (max - min) / median of the repetitions; "
                                                                 "stage_sum (frame only), |total - sum of the stage medians| / total. "
                                                                 "machine busy: measure again with more --reps")
               ? 0
               : -1;
}
