"""How the Python suites share the machine when scripts/test runs them side by side (pytest-xdist,
`--dist loadgroup`): each file's tests stay together on one worker, so that a module's server, its
OpenID provider or IHateMoney's virtual environment is made once; the API contract's two halves
(SQLite and PostgreSQL), the longest tests by far, may each go to a worker of their own. The
browser tests share nothing but a session's server, which each worker starts for itself.
"""

import pytest


# Before xdist's own hook, which reads the groups to schedule by.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        path = item.path
        if path.parent.name == "browser":
            continue
        group = f"{path.parent.name}/{path.name}"
        if path.parent.name == "contract" and hasattr(item, "callspec"):
            group += f"[{item.callspec.id}]"
        item.add_marker(pytest.mark.xdist_group(group))
