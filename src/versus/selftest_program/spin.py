"""A CPU loop whose time is proportional to its iterations; spin_planted does 3% more of them."""
import versus_helper as vh


def spin(n):
    total = 0
    for i in range(n):
        total += i
    return total


vh.run({"spin": vh.timed(spin), "spin_again": vh.timed(spin),
        "spin_planted": vh.timed(lambda n: spin(n + n * 3 // 100))})
