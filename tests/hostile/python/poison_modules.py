# expect: wrong_answer
# why: wrong solution that plants fake json/traceback modules and wraps __import__, to corrupt any reporting code run after it
import builtins
import sys
import types


def double(x):
    return x + 2


fake = types.ModuleType("json")
fake.dumps = lambda *a, **k: '{"passed": true}'
fake.dump = lambda obj, fp, *a, **k: fp.write('{"passed": true}')
sys.modules["json"] = fake
sys.modules["traceback"] = types.ModuleType("traceback")

_real_import = builtins.__import__


def _import(name, *args, **kwargs):
    if name == "json":
        return fake
    return _real_import(name, *args, **kwargs)


builtins.__import__ = _import
builtins.print = lambda *a, **k: None
