# The JRuby twin of the 2009 Jython synchronization benchmark (Tobias Ivarsson), for JRuby 1.0 .. 10
# and CRuby.  Ruby 1.8 syntax.  One sample = the original's measured phase for one function: a pool of
# THREADS threads runs TASKS tasks; a task times ROUNDS rounds of CALLS calls of f(5, 10) and keeps its
# fastest round; the sample is the sum of the TASKS minima for TASKS x CALLS calls.
# atomic_counting_adder uses Java's AtomicInteger, so it exists on JRuby only (CRuby's standard
# library has no atomic integer): the program does not list it on CRuby.
require 'thread'
require 'versus_helper'

JRUBY = defined?(JRUBY_VERSION) ? true : false
require 'java' if JRUBY

THREADS = Versus.param('threads', '3').to_i
TASKS = Versus.param('tasks', '40').to_i
ROUNDS = Versus.param('rounds', '5').to_i
CALLS = Versus.param('calls', '10000').to_i
# the original Ruby twin warms each function up with 10 x 10,000 calls on the main thread
WARMUP_CALLS = Versus.param('warmup_calls', '100000').to_i

$counter = 0
$lock = Mutex.new
$atomic = nil

def reset
  $counter = 0
  $atomic = java.util.concurrent.atomic.AtomicInteger.new if JRUBY
end

def adder(a, b)
  a + b
end

def counting_adder(a, b)
  $counter += 1
  a + b
end

def synchronized_counting_adder(a, b)
  $lock.synchronize { $counter += 1 }
  a + b
end

def atomic_counting_adder(a, b)
  $atomic.incrementAndGet
  a + b
end

# uncontended_synchronized_counting_adder: synchronized_counting_adder with no contention at all. Each
# task makes its own Own, so its own lock and counter. One task method and one adder method serve
# every task, as in the contended case: JRuby compiles a method after it has been called 50 times and
# has no on-stack replacement, so a method per task (called once per sample) would stay interpreted.
class Own
  attr_reader :counter

  def initialize
    @lock = Mutex.new
    @counter = 0
  end

  def synchronized_counting_adder(a, b)
    @lock.synchronize { @counter += 1 }
    a + b
  end
end

def task_uncontended(own)
  best = nil
  result = nil
  ROUNDS.times do
    start = Versus.now_ns
    i = 0
    while i < CALLS
      result = own.synchronized_counting_adder(5, 10)
      i += 1
    end
    elapsed = Versus.now_ns - start
    best = elapsed if best.nil? || elapsed < best
  end
  [best, result]
end

def warm_uncontended(calls)
  own = Own.new
  i = 0
  while i < calls
    own.synchronized_counting_adder(5, 10)
    i += 1
  end
end

NAMES = ['adder', 'counting_adder', 'synchronized_counting_adder']
NAMES << 'atomic_counting_adder' if JRUBY

# For each function, a task method that calls it directly: time ROUNDS rounds of CALLS calls;
# return [fastest round in ns, the last result]; and a warm-up method.
NAMES.each do |name|
  eval <<-RUBY
    def task_#{name}
      best = nil
      result = nil
      ROUNDS.times do
        start = Versus.now_ns
        i = 0
        while i < CALLS
          result = #{name}(5, 10)
          i += 1
        end
        elapsed = Versus.now_ns - start
        best = elapsed if best.nil? || elapsed < best
      end
      [best, result]
    end

    def warm_#{name}(calls)
      i = 0
      while i < calls
        #{name}(5, 10)
        i += 1
      end
    end
  RUBY
end

# THREADS threads take task indexes from a Queue (ended by one nil per thread) and call task.call(i) for
# each; returns the results.
def run_pool(task)
  work = Queue.new
  TASKS.times { |i| work << i }
  THREADS.times { work << nil }
  done = Queue.new
  threads = (1..THREADS).map do
    Thread.new do
      while (i = work.pop)
        done << task.call(i)
      end
    end
  end
  threads.each { |t| t.join } # re-raises an exception of a task
  (1..TASKS).map { done.pop }
end

$warmed = {}

def measure(name, ctx)
  uncontended = name == 'uncontended_synchronized_counting_adder'
  unless $warmed[name]
    send(uncontended ? 'warm_uncontended' : "warm_#{name}", WARMUP_CALLS)
    $warmed[name] = true
  end
  reset
  owns = Array.new(TASKS) # one slot per task, filled by the pool threads
  task = if uncontended
           # each task's Own is made by the pool thread that runs it, before its timed rounds
           lambda { |i| own = owns[i] = Own.new; task_uncontended(own) }
         else
           lambda { |i| send("task_#{name}") }
         end
  results = run_pool(task)
  ns = 0
  last_sum = 0
  results.each do |best, last|
    ns += best
    last_sum += last
  end
  calls = TASKS * ROUNDS * CALLS
  check = case name
          when 'atomic_counting_adder' then $atomic.get
          when 'synchronized_counting_adder' then $counter
          when 'uncontended_synchronized_counting_adder' then owns.inject(0) { |sum, own| sum + own.counter }
          else last_sum
          end
  ctx.metric('lost_updates', calls - $counter, 'count') if name == 'counting_adder'
  Versus::Sample.new(ns, TASKS * CALLS, check)
end

reset
CASES = NAMES.dup
CASES.insert(3, 'uncontended_synchronized_counting_adder')
Versus.run(CASES.map { |name| [name, lambda { |ctx| measure(name, ctx) }] })
