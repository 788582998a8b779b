# Python 2.5 through 3.x: reads versus_helper's own clock back to back.
import versus_helper as vh


def clock(ctx):
    reads = int(ctx.param("reads", "100000"))
    now = vh.now_ns
    stamps = [0] * reads
    for i in range(reads):
        stamps[i] = now()
    steps = [stamps[i + 1] - stamps[i] for i in range(reads - 1)]
    positive = [s for s in steps if s > 0]
    steps.sort()
    ctx.metric("min_step_ns", min(positive or [0]), "ns")
    ctx.metric("median_step_ns", steps[len(steps) // 2], "ns")
    return vh.Sample(stamps[-1] - stamps[0], reads - 1, str(reads))


vh.run({"clock": clock})
