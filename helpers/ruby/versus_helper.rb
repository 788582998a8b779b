# versus protocol v1 helper for Ruby programs (see docs/protocol.md).
#
# Ruby 1.8 syntax, so that it runs unchanged on JRuby 1.0 (Ruby 1.8.5) through
# Ruby 3.x / JRuby 10: no `->`, no `key: value` hashes, no block-argument defaults.
#
#   require 'versus_helper'
#   Versus.run('adder' => Versus.timed { |n| total },                        # timed: gets inner
#              'pool'  => lambda { |ctx| Versus::Sample.new(ns, inner, check) })  # manual
#
# `run` takes a Hash (its cases are listed in sorted order: Ruby 1.8 hashes have
# no order) or an Array of [name, case] pairs (listed in that order).  A manual
# case is anything that responds to `call(ctx)`; ctx has `inner`, `case_name`,
# `warmup`, `param(name, default)` and `metric(name, value, unit)`.
module Versus
  PROTOCOL_VERSION = 1
  DEFAULT_MIN_SAMPLE_NS = 100000000
  DEFAULT_WARMUP = 1
  DEFAULT_SAMPLES = 3
  MAX_INNER = 1 << 40

  # ------------------------------------------------------------------------
  # runtime and clock

  if defined?(JRUBY_VERSION)
    RUNTIME = 'jruby'
    VERSION = JRUBY_VERSION
  else
    RUNTIME = 'cruby'
    VERSION = RUBY_VERSION
  end
  if defined?(RUBY_DESCRIPTION)
    IMPL = RUBY_DESCRIPTION
  else
    IMPL = "ruby #{RUBY_VERSION} (#{RUBY_RELEASE_DATE}) [#{RUBY_PLATFORM}]" +
           (defined?(JRUBY_VERSION) ? " jruby #{JRUBY_VERSION}" : '')
  end

  monotonic = nil
  if defined?(Process::CLOCK_MONOTONIC) && Process.respond_to?(:clock_gettime)
    begin
      monotonic = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
    rescue Exception
      monotonic = nil
    end
  end
  java_clock = nil
  if monotonic.nil? && defined?(JRUBY_VERSION)
    begin
      require 'java'
      java_clock = java.lang.System
      java_clock.nanoTime
    rescue Exception
      java_clock = nil
    end
  end

  if monotonic
    CLOCK = 'Process.clock_gettime(CLOCK_MONOTONIC)'
    def self.now_ns
      Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
    end
  elsif java_clock
    CLOCK = 'System.nanoTime'
    JAVA_SYSTEM = java_clock
    def self.now_ns
      JAVA_SYSTEM.nanoTime
    end
  else
    CLOCK = 'Time.now'
    def self.now_ns
      t = Time.now
      t.tv_sec * 1000000000 + t.tv_usec * 1000
    end
  end

  # ------------------------------------------------------------------------
  # a tiny JSON writer: String, Symbol, Integer, Float, true, false, nil, Array, pairs

  # An ordered JSON object: Pairs.new([[key, value], ...]).
  class Pairs
    attr_reader :items
    def initialize(items)
      @items = items
    end
  end

  def self.json_string(value)
    text = value.to_s
    codes = begin
      text.unpack('U*')
    rescue ArgumentError
      text.unpack('C*') # not UTF-8: take the bytes as Latin-1
    end
    out = '"'
    codes.each do |code|
      if code == 0x22
        out << '\\"'
      elsif code == 0x5C
        out << '\\\\'
      elsif code == 0x0A
        out << '\\n'
      elsif code == 0x0D
        out << '\\r'
      elsif code == 0x09
        out << '\\t'
      elsif code < 0x20 || (code >= 0x7F && code <= 0xFFFF)
        out << sprintf('\\u%04x', code) # JRuby 1.x gives UTF-16 units: surrogates pass as they are
      elsif code > 0xFFFF
        code -= 0x10000
        out << sprintf('\\u%04x\\u%04x', 0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF))
      else
        out << code.chr
      end
    end
    out << '"'
    out
  end

  def self.to_json(value)
    case value
    when nil then 'null'
    when true then 'true'
    when false then 'false'
    when Integer then value.to_s
    when Float
      (value.nan? || value.infinite?) ? 'null' : value.to_s
    when Pairs
      '{' + value.items.map { |k, v| json_string(k) + ':' + to_json(v) }.join(',') + '}'
    when Hash
      '{' + value.keys.map { |k| k.to_s }.sort.map { |k|
        json_string(k) + ':' + to_json(value.key?(k) ? value[k] : value[k.to_sym])
      }.join(',') + '}'
    when Array
      '[' + value.map { |v| to_json(v) }.join(',') + ']'
    else
      json_string(value)
    end
  end

  # Writes one protocol line: emit([['type', 'end']]) -> @versus {"type":"end"}
  def self.emit(pairs)
    $stdout.write('@versus ' + to_json(Pairs.new(pairs)) + "\n")
    $stdout.flush
  end

  # ------------------------------------------------------------------------
  # the API

  # One timed measurement: ns for inner iterations, and the check value (nil for none).
  class Sample
    attr_accessor :ns, :inner, :check
    def initialize(ns, inner, check = nil)
      @ns = ns
      @inner = inner
      @check = check
    end
  end

  # The experiment parameter VERSUS_PARAM_<NAME> as a String, or default.
  REQUIRED = Object.new

  # The parameter VERSUS_PARAM_<NAME>, or default; without a default a parameter the run does not
  # pass is an error naming the ones it does (a typo is not nil).
  def self.param(name, default = REQUIRED)
    value = ENV['VERSUS_PARAM_' + name.to_s.upcase]
    return value unless value.nil?
    return default unless default.equal?(REQUIRED)
    known = ENV.keys.select { |k| k.index('VERSUS_PARAM_') == 0 }.map { |k| k[13..-1].downcase }.sort
    raise ArgumentError, "unknown parameter #{name.to_s.inspect}: this run passes " +
      (known.empty? ? 'no parameters' : known.join(', ')) + '; give param a default to make it optional'
  end

  # What a manual case gets.
  class Context
    attr_reader :inner, :case_name, :warmup, :metrics
    def initialize(case_name, inner, warmup)
      @case_name = case_name
      @inner = inner
      @warmup = warmup
      @metrics = []
    end

    def param(name, default = REQUIRED)
      Versus.param(name, default)
    end

    def metric(name, value, unit)
      @metrics << [name, value, unit]
    end
  end

  # A timed case: the helper times the block called with inner; it returns the check value or nil.
  class Timed
    def initialize(&block)
      @block = block
    end

    def call(ctx)
      block = @block
      inner = ctx.inner
      start = Versus.now_ns
      result = block.call(inner)
      elapsed = Versus.now_ns - start
      Sample.new(elapsed, inner, result)
    end
  end

  def self.timed(&block)
    Timed.new(&block)
  end

  class UsageError < StandardError
  end

  def self.env_int(name, default, minimum)
    text = ENV[name]
    if text.nil? || text.strip.empty?
      raise UsageError, "#{name} is not set" if default.nil?
      return default
    end
    raise UsageError, "#{name}=#{text.inspect} is not an integer" unless text.strip =~ /\A[-+]?\d+\z/
    value = text.strip.to_i
    raise UsageError, "#{name}=#{text.inspect} must be >= #{minimum}" if value < minimum
    value
  end

  def self.case_list(cases)
    if cases.is_a?(Hash)
      cases.keys.map { |k| k.to_s }.sort.map { |k| [k, cases.key?(k) ? cases[k] : cases[k.to_sym]] }
    else
      cases.map { |name, kase| [name.to_s, kase] }
    end
  end

  def self.check_text(value)
    value.to_s
  end

  def self.call_case(name, kase, inner, warmup)
    ctx = Context.new(name, inner, warmup)
    sample = kase.call(ctx)
    raise TypeError, "case #{name.inspect} returned #{sample.inspect}, not a Versus::Sample" unless sample.is_a?(Sample)
    [sample, ctx]
  end

  def self.report(name, sample, ctx, warmup)
    ns = sample.ns.round
    ns = 0 if ns < 0
    emit([['type', 'sample'], ['case', name], ['ns', ns], ['inner', sample.inner.to_i], ['warmup', warmup]])
    emit([['type', 'check'], ['case', name], ['value', check_text(sample.check)]]) unless sample.check.nil?
    unless warmup
      ctx.metrics.each do |metric_name, value, unit|
        emit([['type', 'metric'], ['case', name], ['name', metric_name], ['value', value], ['unit', unit]])
      end
    end
  end

  # Doubles inner until a sample takes >= min_ns (a sample that reaches it is measured once more and
  # the faster is used), then scales it to the target (min_ns + 10%), re-measuring and re-scaling up
  # to 3 times while a sample falls short (a JIT warming up).  Returns [inner, first]: `first` is a
  # [sample, ctx] to report as the first sample when the case sizes itself (it ignores ctx.inner).
  def self.calibrate(name, kase, min_ns, first_warmup)
    inner = 1
    sample = nil
    loop do
      sample, ctx = call_case(name, kase, inner, first_warmup)
      return [0, [sample, ctx]] if sample.inner.to_i != inner
      break if inner >= MAX_INNER
      if sample.ns >= min_ns
        again, ctx = call_case(name, kase, inner, first_warmup)
        sample = again if again.ns < sample.ns
        break if sample.ns >= min_ns / 2
      end
      inner *= 2
    end
    target = min_ns * 1.1
    3.times do
      if sample.ns > 0
        inner = (inner * target / sample.ns).round
        inner = 1 if inner < 1
        inner = MAX_INNER if inner > MAX_INNER
      end
      sample, ctx = call_case(name, kase, inner, first_warmup)
      break if sample.ns >= min_ns
    end
    $stdout.write("calibrated #{name}: inner=#{inner} (last probe #{sample.ns} ns)\n")
    [inner, nil]
  end

  def self.hello
    emit([['v', PROTOCOL_VERSION], ['type', 'hello'], ['runtime', RUNTIME], ['version', VERSION],
          ['clock', CLOCK], ['impl', IMPL]])
  end

  # Runs the case VERSUS_CASE as the environment says, speaking protocol v1 on stdout.
  def self.run(cases)
    cases = case_list(cases)
    names = cases.map { |n, k| n }
    name = kase = warmup = samples = inner = min_ns = nil
    begin
      protocol = (ENV['VERSUS_PROTOCOL'] || '1').strip
      raise UsageError, "VERSUS_PROTOCOL=#{protocol.inspect} is not supported (this helper speaks 1)" if protocol != '1'
      listing = !['', '0'].include?((ENV['VERSUS_LIST'] || '').strip)
      unless listing
        name = ENV['VERSUS_CASE']
        raise UsageError, "VERSUS_CASE is not set (cases: #{names.join(', ')})" if name.nil? || name.empty?
        found = cases.find { |n, k| n == name }
        raise UsageError, "VERSUS_CASE=#{name.inspect} is not a case of this program (cases: #{names.join(', ')})" if found.nil?
        kase = found[1]
        warmup = env_int('VERSUS_WARMUP', DEFAULT_WARMUP, 0)
        samples = env_int('VERSUS_SAMPLES', DEFAULT_SAMPLES, 0)
        inner = env_int('VERSUS_INNER', 0, 0)
        min_ns = env_int('VERSUS_MIN_SAMPLE_NS', DEFAULT_MIN_SAMPLE_NS, 1)
      end
    rescue UsageError => e
      $stdout.flush
      $stderr.write("versus_helper: #{e.message}\n")
      $stderr.flush
      exit 2
    end

    hello
    if listing
      names.each { |n| emit([['type', 'case'], ['name', n]]) }
      emit([['type', 'end']])
      return
    end

    begin
      pending = []
      if inner == 0 && warmup + samples > 0
        inner, first = calibrate(name, kase, min_ns, warmup > 0)
        pending << first unless first.nil?
      end
      (warmup + samples).times do |index|
        is_warmup = index < warmup
        if pending.empty?
          sample, ctx = call_case(name, kase, inner, is_warmup)
        else
          sample, ctx = pending.shift
        end
        report(name, sample, ctx, is_warmup)
      end
    rescue SystemExit, Interrupt
      raise
    rescue Exception => e
      $stdout.flush
      $stderr.write("versus_helper: case #{name.inspect} failed:\n")
      $stderr.write("#{e.class}: #{e.message}\n")
      (e.backtrace || []).each { |line| $stderr.write("\tfrom #{line}\n") }
      $stderr.flush
      exit 1
    end
    emit([['type', 'end']])
  end
end
