/* The workload of `versus selftest`: a register-only loop whose time is proportional to its
 * iterations. spin and spin_again are the same loop (A/A); spin_planted runs 3% more iterations,
 * so its time per iteration (time ÷ inner) is exactly 1.03× — the planted slowdown. two_states and
 * two_states_again are another A/A pair, of processes that settle in one of two states as some JVMs
 * do: each process draws its state once, at random, and in the slow one runs the loop twice for the
 * same result, so its time per iteration is 2× (docs/method.md, "Few rounds and two states").
 *
 * C rather than Python: a CPython loop's processes differ by about 4% from one another on this
 * machine (and a 3% longer loop measured 1.06–1.09×), so it tested the interpreter's noise more than
 * the rule; this loop's processes agree within about 1% (docs/results.md, "versus selftest"). */
#include "versus.h"

static uint64_t spin(uint64_t n)
{
    uint64_t total = 0;
    for (uint64_t i = 0; i < n; i++) {
        total += i;
        __asm__ volatile("" : "+r"(total)); /* keeps the loop a loop: no closed form, no vectors */
    }
    return total;
}

static int plain(versus_ctx *ctx, uint64_t inner)
{
    return versus_check_u64(ctx, spin(inner));
}

static int planted(versus_ctx *ctx, uint64_t inner)
{
    return versus_check_u64(ctx, spin(inner + inner * 3 / 100));
}

static int state = -1; /* drawn once per process: 0 or 1 */

static int draw_state(void)
{
    unsigned char byte = 0;
    FILE *random = fopen("/dev/urandom", "rb");
    if (random) {
        if (fread(&byte, 1, 1, random) != 1)
            byte = 0;
        fclose(random);
    }
    return byte & 1;
}

static int two_states(versus_ctx *ctx, uint64_t inner)
{
    if (state < 0)
        state = draw_state();
    uint64_t total = spin(inner);
    if (state)
        total = (total + spin(inner)) / 2; /* the same value, twice the work */
    return versus_check_u64(ctx, total);
}

static const versus_case cases[] = {
    VERSUS_TIMED("spin", plain), VERSUS_TIMED("spin_again", plain), VERSUS_TIMED("spin_planted", planted),
    VERSUS_TIMED("two_states", two_states), VERSUS_TIMED("two_states_again", two_states)};

int main(void) { return versus_run(cases, sizeof cases / sizeof cases[0]); }
