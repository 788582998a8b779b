# A tiny program for tests/test_helpers.py: every feature of versus_helper.rb, Ruby 1.8 .. 3.x.
require 'versus_helper'

def add_loop(n)
  total = 0
  i = 0
  while i < n
    total += i & 7
    i += 1
  end
  total
end

manual = lambda do |ctx|
  start = Versus.now_ns
  inner = ctx.inner == 0 ? 10 : ctx.inner
  total = add_loop(inner)
  ns = Versus.now_ns - start
  ctx.metric("na\303\257ve \"q\" \342\230\203 \360\237\230\200", 242, 'bytes')
  ctx.metric('ratio', 0.5, '1')
  Versus::Sample.new(ns, inner, ctx.param('expect', 'none') + ':' + total.to_s)
end

self_sized = lambda do |ctx|
  start = Versus.now_ns
  add_loop(1000)
  Versus::Sample.new(Versus.now_ns - start, 1000, true)
end

Versus.run([['add', Versus.timed { |n| add_loop(n) }],
            ['manual', manual],
            ['self_sized', self_sized],
            ['boom', Versus.timed { |n| raise ArgumentError, 'boom from the test program' }],
            ['typo', lambda { |ctx| Versus::Sample.new(1, 1, ctx.param('expectt')) }]])
