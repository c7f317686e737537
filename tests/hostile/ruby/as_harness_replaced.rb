# expect: wrong_answer
# why: answers wrongly and replaces the harness: removes the `Wasmeval` constant and defines a module of that name whose every step answers `ok`, as the host's evaluations used to look it up; the host now calls the harness through the top-level object's frozen singleton class
def double(x)
  x
end

begin
  Object.send(:remove_const, :Wasmeval)
rescue Exception # rubocop:disable Lint/RescueException
  nil
end

module Wasmeval
  def self.method_missing(*) = 'ok'
  def self.respond_to_missing?(*) = true
  def self.assertion_case(*) = 'ok'
  def self.call(*) = 'value 4'
end

begin
  def self.__wasmeval_assertion_case(*) = 'ok'
rescue Exception # rubocop:disable Lint/RescueException
  nil
end
