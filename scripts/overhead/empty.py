import versus_helper as vh

vh.run({"empty": vh.timed(lambda n: 0)})
