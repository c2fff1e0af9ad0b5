"""Running independent pieces of work on several processes, or on a Dask cluster.

:func:`ordered_map` returns the results in the order of the inputs, whatever the order
in which workers finish, so a parallel run gives the same bytes as a serial one. The
work function must be a module-level function (it is pickled by reference) whose
result depends on its argument alone.

* ``jobs > 1``: a local pool of forked processes (workers ignore Ctrl-C, which is the
  parent's to report).
* ``scheduler``: ``"local"`` starts a Dask ``LocalCluster`` of ``jobs`` single-threaded
  worker processes; any other text is the address of a running scheduler
  (``tcp://host:8786``). Needs the ``[dask]`` extra.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from pdpsym.core.errors import InputError

T = TypeVar("T")
R = TypeVar("R")


def _quiet_worker() -> None:
    import signal  # only in pool workers

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def ordered_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    jobs: int = 1,
    on_done: Callable[[int], None] | None = None,
    scheduler: str | None = None,
) -> list[R]:
    """``[fn(x) for x in items]``, on ``jobs`` processes or a Dask cluster, in input order.

    The results come back in the order of ``items`` whatever the order in which workers
    finish, so a parallel run gives the same results as a serial one. With no
    ``scheduler`` and ``jobs <= 1`` (or at most one item) the work runs in this process;
    with ``jobs > 1`` on a pool of ``min(jobs, len(items))`` forked processes that ignore
    Ctrl-C; with a ``scheduler`` on Dask.

    Args:
        fn: a module-level function (it is pickled by reference) whose result depends on
            its argument alone.
        items: the arguments; consumed once, into a list.
        jobs: the number of worker processes (``<= 1``: serial); with ``scheduler="local"``
            the number of single-threaded Dask workers (at least 1).
        on_done: called in this process with the index ``i`` of each item as it finishes
            (for progress), in completion order; None for no callback.
        scheduler: None for no Dask; ``"local"`` to start a Dask ``LocalCluster`` for this
            call; any other text is the address of a running scheduler
            (``tcp://host:8786``). Needs the ``[dask]`` extra.

    Returns:
        The list of ``fn(x)``, in the order of ``items``. An exception raised by ``fn``
        propagates.

    Raises:
        InputError: naming ``scheduler``, when Dask is not installed or the scheduler
            cannot be reached.

    References:
        Python docs, ``concurrent.futures.ProcessPoolExecutor``; Dask docs,
        ``distributed.Client.map``.

    Examples:
        >>> ordered_map(abs, [-2, 1, -3])
        [2, 1, 3]
    """
    todo = list(items)
    if scheduler is not None:
        return _dask_map(fn, todo, scheduler, jobs, on_done)
    if jobs <= 1 or len(todo) <= 1:
        out = []
        for i, x in enumerate(todo):
            out.append(fn(x))
            if on_done:
                on_done(i)
        return out
    import multiprocessing  # only when asked for more than one process
    from concurrent.futures import ProcessPoolExecutor, as_completed

    done: dict[int, R] = {}
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(
        max_workers=min(jobs, len(todo)), mp_context=ctx, initializer=_quiet_worker
    ) as pool:
        futures = {pool.submit(fn, x): i for i, x in enumerate(todo)}
        for fut in as_completed(futures):
            i = futures[fut]
            done[i] = fut.result()
            if on_done:
                on_done(i)
    return [done[i] for i in range(len(todo))]


def _client(scheduler: str, jobs: int) -> tuple[Any, Any]:
    try:
        from dask.distributed import Client, LocalCluster  # the optional [dask] extra
    except ImportError:
        raise InputError("scheduler", "needs the Dask extra: pip install 'pdpsym[dask]'") from None
    if scheduler == "local":
        cluster = LocalCluster(
            n_workers=max(jobs, 1),
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        )
        return Client(cluster), cluster
    try:
        return Client(scheduler, timeout="10s"), None
    except (OSError, TimeoutError, ValueError) as err:
        raise InputError("scheduler", f"cannot reach {scheduler!r}: {err}") from None


def _dask_map(
    fn: Callable[[T], R],
    todo: list[T],
    scheduler: str,
    jobs: int,
    on_done: Callable[[int], None] | None,
) -> list[R]:
    client, cluster = _client(scheduler, jobs)
    from dask.distributed import as_completed  # present: _client imported it

    try:
        futures = client.map(fn, todo, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        for fut in as_completed(futures):
            if on_done:
                on_done(index[fut.key])
        return list(client.gather(futures))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
