/* test_noise.c — frame's and budget's noise warning (cli/noise.c) on known
 * numbers: which test trips at which spread and stage sum, and the JSON it
 * writes. No clock. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#include "noise.h"


static void test_check(void)
{
    CHECK(NOISE_LIMIT == 0.20, "the limit is 20 %%, got %g", NOISE_LIMIT);
    /* the spread alone (no stages) */
    CHECK(noise_check(0.25, NAN, 100) == NOISE_SPREAD, "spread 0.25 warns");
    CHECK(noise_check(0.15, NAN, 100) == 0, "spread 0.15 does not");
    CHECK(noise_check(0.20, NAN, 100) == 0, "spread 0.20 is at the limit, not over it");
    /* the stage sum against the whole, either side */
    CHECK(noise_check(0.05, 70, 100) == NOISE_STAGE_SUM, "stage sum 30 %% under the total warns");
    CHECK(noise_check(0.05, 130, 100) == NOISE_STAGE_SUM, "stage sum 30 %% over the total warns");
    CHECK(noise_check(0.05, 90, 100) == 0, "stage sum 10 %% off does not");
    CHECK(noise_check(0.25, 130, 100) == (NOISE_SPREAD | NOISE_STAGE_SUM), "both trip");
    /* nothing to judge: no figure, no repetitions' spread */
    CHECK(noise_check(NAN, NAN, NAN) == 0, "NaN trips nothing");
    CHECK(noise_check(NAN, 50, 0) == 0, "a whole of 0 trips nothing");
    /* the spread as frame and budget compute it */
    CHECK(fabs(noise_spread(100, 90, 115) - 0.25) < 1e-12, "spread of [90, 115] around 100 is 0.25");
    CHECK(noise_check(noise_spread(100, 95, 110), NAN, 100) == 0, "[95, 110] around 100 is quiet");
    CHECK(isnan(noise_spread(0, 0, 1)), "no spread around a median of 0");
    CHECK(noise_mark(NOISE_SPREAD, NOISE_SPREAD) == '!' && noise_mark(NOISE_SPREAD, NOISE_STAGE_SUM) == ' ',
          "the marker only for the test that tripped");
}

static void test_json(void)
{
    cJSON *o = cJSON_CreateObject(), *cf = cJSON_CreateObject();
    CHECK(o && cf && noise_json(o, NOISE_SPREAD | NOISE_STAGE_SUM) && noise_config_json(cf) == 0, "JSON written");
    cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "noisy");
    CHECK(cJSON_IsArray(a) && cJSON_GetArraySize(a) == 2, "noisy names both tests");
    CHECK(a && !strcmp(cJSON_GetArrayItem(a, 0)->valuestring, "spread") &&
          !strcmp(cJSON_GetArrayItem(a, 1)->valuestring, "stage_sum"), "by name: spread, stage_sum");
    cJSON *q = cJSON_CreateObject();
    CHECK(q && noise_json(q, 0) && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(q, "noisy")) == 0,
          "a quiet figure has an empty noisy");
    cJSON *lim = cJSON_GetObjectItemCaseSensitive(cf, "noise_limit");
    CHECK(cJSON_IsNumber(lim) && lim->valuedouble == NOISE_LIMIT, "the config records the limit");
    cJSON_Delete(o), cJSON_Delete(cf), cJSON_Delete(q);
}

int main(void)
{
    test_check();
    test_json();
    return check_done();
}
