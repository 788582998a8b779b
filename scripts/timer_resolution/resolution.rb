# Ruby 1.8 through 3.x: reads versus_helper's own clock back to back.
require 'versus_helper'

clock = lambda do |ctx|
  reads = ctx.param('reads', '100000').to_i
  stamps = Array.new(reads, 0)
  i = 0
  while i < reads
    stamps[i] = Versus.now_ns
    i += 1
  end
  steps = (0...(reads - 1)).map { |j| stamps[j + 1] - stamps[j] }
  positive = steps.select { |s| s > 0 }
  ctx.metric('min_step_ns', positive.empty? ? 0 : positive.min, 'ns')
  ctx.metric('median_step_ns', steps.sort[steps.size / 2], 'ns')
  Versus::Sample.new(stamps[-1] - stamps[0], reads - 1, reads.to_s)
end

Versus.run('clock' => clock)
