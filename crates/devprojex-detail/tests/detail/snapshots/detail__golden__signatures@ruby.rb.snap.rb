#!/usr/bin/env ruby
# frozen_string_literal: true
#
# = Top: a magic comment right above a doc must not end its summary.
module Top
end
require "json"
# Doc for Foo.
class Foo
  attr_reader :a
  X = "# not a comment"
  # Doc for initialize.
  def initialize(a)
    @a = a
  end
  def heredoc
    # ...
  end
  def self.build(x)
    # ...
  end
  def one = 1
end
# Summary of Documented.
class Documented
  # Summary of value.
  def value
    1 + 1
  end
end
# Doc for Bar.
class Bar
  # Doc for VERSION.
  VERSION = "1"
  # Doc for name.
  attr_reader :name
  if true
    # Doc for the first method of a branch.
    def branch_method
      1
    end
  end
  # Doc for a method passed to private.
  private def hidden
    2
  end
end
