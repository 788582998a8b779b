# The two fib algorithms of Charles Nutter's "The Fastest Ruby Platform?" (2006), for CRuby and for
# JRuby 1.0 .. 10.  Ruby 1.8 syntax.  fib_recursive(n) is the bi-recursive one; fib_iterative(n) the
# loop with big integers; each is written exactly as in the post.
require 'versus_helper'

RECURSIVE_N = Versus.param('recursive_n', '30').to_i
ITERATIVE_N = Versus.param('iterative_n', '500000').to_i
# untimed calls of fib_recursive before its first sample, so that the JITs have compiled fib
WARMUP_CALLS = Versus.param('warmup_calls', '5').to_i

def fib_recursive(n)
  if n < 2
    n
  else
    fib_recursive(n - 2) + fib_recursive(n - 1)
  end
end

def fib_iterative(n)
  i = 0
  j = 1
  cur = 1
  while cur <= n
    k = i
    i = j
    j = k + j
    cur += 1
  end
  i
end

# The last 20 decimal digits, zero-padded: the check of fib_iterative, cheap to take from a big number.
def last20(value)
  sprintf('%020d', value % (10 ** 20))
end

if ENV['VERSUS_CASE'] == 'fib_recursive'
  WARMUP_CALLS.times { fib_recursive(RECURSIVE_N) }
end

Versus.run([
  ['fib_recursive', Versus.timed { |inner|
    result = nil
    inner.times { result = fib_recursive(RECURSIVE_N) }
    result
  }],
  ['fib_iterative', Versus.timed { |inner|
    result = nil
    inner.times { result = fib_iterative(ITERATIVE_N) }
    last20(result)
  }],
])
