// expect: timeout
// why: a regular expression with exponential backtracking on a 40-character input; QuickJS's regexp engine runs it in the guest, so fuel stops it (no host regex engine is involved)
function double(x) {
  return 2 * x;
}
/^(a+)+$/.test('a'.repeat(40) + 'b');
