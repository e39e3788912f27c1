"""OS layers a worker process applies to itself before it accepts any request.

Each layer is tried and reported; a layer the host does not allow is skipped and reported as
inactive (``docs/sandbox.md`` lists which are active where). Order matters: everything the worker
needs is imported first, then the network namespace (needs root), then limits, then the uid drop,
then seccomp (last: it forbids the calls the earlier steps make).
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
from dataclasses import dataclass
from typing import Any

try:  # imported now: after the uid drop the worker may not be able to read site-packages
    import pyseccomp
except (ImportError, OSError) as _exc:  # libseccomp missing on this host
    pyseccomp = None
    _SECCOMP_MISSING = f"{type(_exc).__name__}: {_exc}"

CLONE_NEWNET = 0x40000000
CLONE_THREAD = 0x00010000
NO_NEW_FD_LIMIT = 16


@dataclass(frozen=True)
class HardeningConfig:
    uid: int | None = None
    memory_bytes: int = 512 * 1024 * 1024
    network_namespace: bool = True
    seccomp: bool = True
    # RLIMIT_NPROC for the worker's own uid. 0 (no process, no thread) for RestrictedPython
    # workers; WASM workers need a few threads (wasmtime's WASI does blocking I/O on a thread
    # pool), and there seccomp's clone rule — threads only — is what still forbids forks.
    threads: int = 0
    # RLIMIT_FSIZE: 0 (no file may grow) for RestrictedPython workers; WASM workers capture a
    # module's stdout and stderr in memory files, which this bounds (SIGXFSZ is ignored there,
    # so an oversized write fails with EFBIG instead of killing the worker).
    file_bytes: int = 0


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


def enter_network_namespace() -> str:
    if _libc().unshare(CLONE_NEWNET) != 0:
        return f"inactive ({errno.errorcode.get(ctypes.get_errno(), ctypes.get_errno())})"
    return "active"


def set_limits(memory_bytes: int, threads: int = 0, file_bytes: int = 0) -> str:
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (NO_NEW_FD_LIMIT, NO_NEW_FD_LIMIT))
    resource.setrlimit(resource.RLIMIT_NPROC, (threads, threads))
    return "active" if threads == 0 else f"active (threads: {threads})"


def drop_privileges(uid: int | None) -> str:
    if os.geteuid() != 0:
        return "inactive (not started as root; runs as the server's user)"
    if uid is None:
        return "inactive (no uid configured)"
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    return f"active (uid {uid})"


# Every syscall that can create a file system object or change one, or open a file for writing
# (open/openat are filtered by their flags below; openat2's flags sit behind a pointer seccomp
# cannot read, so it fails with ENOSYS and callers fall back to openat). Also the mount API, SysV
# IPC objects and POSIX message queues (shared with other processes), handles and pidfds.
CREATE_OR_WRITE = (
    "creat", "mknod", "mknodat", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename",
    "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod",
    "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat", "truncate", "ftruncate",
    "fallocate", "utime", "utimes", "futimesat", "utimensat", "setxattr", "lsetxattr", "fsetxattr",
    "removexattr", "lremovexattr", "fremovexattr", "name_to_handle_at", "open_by_handle_at",
    "mq_open", "mq_unlink", "shmget", "msgget", "semget", "acct", "quotactl", "swapon", "swapoff",
    "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    "pidfd_getfd", "io_uring_enter", "io_uring_register",
)  # fmt: skip


def install_seccomp(memory_files: bool = False) -> str:
    """``memory_files``: allow ``memfd_create`` (a WASM worker captures a module's output in
    memory files, bounded by ``RLIMIT_FSIZE``); other workers may create no file of any kind."""
    if pyseccomp is None:
        return f"inactive ({_SECCOMP_MISSING})"
    sc = pyseccomp
    f = sc.SyscallFilter(defaction=sc.ALLOW)
    eperm = sc.ERRNO(errno.EPERM)
    denied = [
        "socket",
        "socketpair",
        "connect",
        "bind",
        "listen",
        "accept",
        "accept4",
        "execve",
        "execveat",
        "fork",
        "vfork",
        "ptrace",
        "unshare",
        "setns",
        "mount",
        "umount2",
        "pivot_root",
        "chroot",
        "bpf",
        "kexec_load",
        "kexec_file_load",
        "process_vm_readv",
        "process_vm_writev",
        "keyctl",
        "add_key",
        "request_key",
        "perf_event_open",
        "init_module",
        "finit_module",
        "delete_module",
        "reboot",
        "swapon",
        "swapoff",
        "setuid",
        "setgid",
        "setreuid",
        "setregid",
        "setresuid",
        "setresgid",
        "setgroups",
        "io_uring_setup",
        "userfaultfd",
        *CREATE_OR_WRITE,
        *(() if memory_files else ("memfd_create", "memfd_secret")),
    ]
    for name in denied:
        try:
            f.add_rule(eperm, name)
        except Exception:  # a syscall this architecture does not have
            continue
    # New processes: only threads may be cloned; clone3 must fail with ENOSYS so glibc falls
    # back to clone (where the flag check applies) instead of failing thread creation.
    f.add_rule(eperm, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0))
    f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    f.add_rule(sc.ERRNO(errno.ENOSYS), "openat2")
    for flag in (os.O_WRONLY, os.O_RDWR, os.O_CREAT, os.O_TRUNC):
        f.add_rule(sc.ERRNO(errno.EACCES), "openat", sc.Arg(2, sc.MASKED_EQ, flag, flag))
        f.add_rule(sc.ERRNO(errno.EACCES), "open", sc.Arg(1, sc.MASKED_EQ, flag, flag))
    f.load()
    return "active"


def harden(config: HardeningConfig) -> dict[str, str]:
    """Apply every layer this host allows; return what is active."""
    os.environ.clear()  # started with none; this also drops Python's own LC_CTYPE coercion
    layers = {"environment": "active (empty)"}
    layers["network_namespace"] = (
        enter_network_namespace() if config.network_namespace else "disabled"
    )
    layers["rlimits"] = set_limits(config.memory_bytes, config.threads, config.file_bytes)
    layers["uid"] = drop_privileges(config.uid)
    layers["seccomp"] = (
        install_seccomp(memory_files=config.file_bytes > 0) if config.seccomp else "disabled"
    )
    return layers


def limit_cpu_for_call(seconds: int) -> None:
    """Raise SIGXCPU if this call burns more than ``seconds`` of CPU beyond what is used so far."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = int(used.ru_utime + used.ru_stime) + 1
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = spent + seconds
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
