"""Reviewed packages (docs/packages.md): pure-Python wheels and npm tarballs an admin uploads,
pinned by name, version and SHA-256, checked at upload and granted per tenant; the code tools
of a tenant import the ones granted to it, read-only, in every tier."""

from __future__ import annotations

import hashlib
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import Field

from server.api.deps import AdminDep, PrincipalDep, RuntimeDep, StoreDep
from server.api.views import Strict, iso, tenant_public
from server.calls.packages import try_import
from server.errors import ConflictError, FieldError, NotFoundError, Problems, ValidationFailedError
from server.registry.packages import check_identity, read_archive
from server.storage.tables import PackageRow

router = APIRouter(prefix="/v1", tags=["packages"])

PackageName = Annotated[str, Path(max_length=100, description="the package's name")]
PackageVersion = Annotated[str, Path(max_length=64, description="its exact version")]
Sha256 = Annotated[
    str, Query(max_length=64, description="the archive's SHA-256 (64 hex digits): its pin")
]


class PackagesGrant(Strict):
    packages: dict[str, str] = Field(
        max_length=100, description="name -> version", examples=[{"slugify-lite": "1.2.0"}]
    )


def package_view(row: PackageRow, files: bool = False) -> dict[str, Any]:
    return {
        "name": row.name,
        "version": row.version,
        "language": row.language,
        "sha256": row.sha256,
        "size": row.size,
        "modules": list(row.modules or ()),
        "main": row.main,
        "files": sorted(row.files) if files else len(row.files),
        "uploaded_by": row.uploaded_by,
        "created_at": iso(row.created_at),
    }


@router.put("/packages/{name}/{version}", responses={201: {"description": "Uploaded"}})
async def upload_package(
    name: PackageName,
    version: PackageVersion,
    sha256: Sha256,
    request: Request,
    response: Response,
    admin: AdminDep,
    store: StoreDep,
    runtime: RuntimeDep,
) -> dict[str, Any]:
    """Upload a reviewed package: the body is the archive itself — a pure-Python wheel or an
    npm tarball — and `sha256` its hash. It is checked (pure code only, its name and version,
    its imports) and imported for real in each tier that would load it, within the load-time
    limit; every reason it is refused comes back at once, and nothing is stored then. A version
    is pinned: the same archive again is a 200, another one a 409."""
    problems = Problems()
    check_identity(name, version, sha256, problems)
    problems.raise_if_any()
    data = await request.body()
    if hashlib.sha256(data).hexdigest() != sha256:  # the pin first: the bytes are the ones named
        problems.add("sha256", f"the archive's SHA-256 is {hashlib.sha256(data).hexdigest()}")
        problems.raise_if_any()
    existing = await store.packages.find(name, version)
    if existing is not None:
        if existing.sha256 != sha256:
            raise ConflictError(
                f"{name} {version} is uploaded already, from another archive "
                f"({existing.sha256}): a version never changes, upload a new one"
            )
        return package_view(existing)
    contents = read_archive(name, version, data, sha256)
    contents.problems.raise_if_any()
    other = await store.packages.by_hash(sha256)
    if other is not None:
        raise ConflictError(f"this archive is uploaded already, as {other.name} {other.version}")
    await store.checkpoint()  # no transaction is held while the tiers try it
    refused = await try_import(runtime.services.engines, contents)
    if refused:
        errors = [FieldError(v.message, v.field or "archive", v.line) for v in refused]
        raise ValidationFailedError(errors)
    row = await store.packages.add(contents, admin.key_id)
    detail = {"sha256": sha256, "language": contents.language}
    store.audit.record(admin.key_id, None, "package.upload", f"{name} {version}", detail)
    response.status_code = 201
    return package_view(row)


@router.get("/packages")
async def list_packages(principal: PrincipalDep, store: StoreDep) -> dict[str, Any]:
    """Admins: every uploaded package. Others: the ones granted to their tenant."""
    rows = await store.packages.list()
    if not principal.is_admin:
        tenant = await store.tenants.get(str(principal.tenant_id))
        granted = {p["sha256"] for p in tenant.packages or ()}
        rows = [r for r in rows if r.sha256 in granted]
    return {"packages": [package_view(r) for r in rows]}


@router.get("/packages/{name}/{version}")
async def get_package(
    name: PackageName, version: PackageVersion, principal: PrincipalDep, store: StoreDep
) -> dict[str, Any]:
    """One package, with the paths of the files kept of it (and, for admins, its tenants)."""
    row = await store.packages.get(name, version)
    grantees = await store.packages.grantees(row.sha256)
    if not principal.is_admin:
        if principal.tenant_id not in grantees:
            raise NotFoundError(f"package {name} {version} not found")
        return package_view(row, files=True)
    return {**package_view(row, files=True), "tenants": grantees}


@router.delete("/packages/{name}/{version}", status_code=204)
async def delete_package(
    name: PackageName, version: PackageVersion, admin: AdminDep, store: StoreDep
) -> Response:
    """Delete a package no tenant is granted (a granted one is a 409 naming its tenants)."""
    row = await store.packages.get(name, version)
    grantees = await store.packages.grantees(row.sha256)
    if grantees:
        raise ConflictError(f"{name} {version} is granted to {', '.join(grantees[:20])}")
    await store.packages.delete(row)
    store.audit.record(admin.key_id, None, "package.delete", f"{name} {version}")
    return Response(status_code=204)


@router.put("/tenants/{tenant}/packages")
async def grant_packages(
    tenant: str, body: PackagesGrant, admin: AdminDep, store: StoreDep
) -> dict[str, Any]:
    """Replace the packages the tenant's code tools may import (`{name: version}`, one version
    of each); the tenant's tools load them from their next call."""
    row = await store.tenants.get(tenant)
    errors: list[FieldError] = []
    granted: list[dict[str, str]] = []
    for name, version in sorted(body.packages.items()):
        package = await store.packages.find(name, version)
        if package is None:
            errors.append(FieldError(f"{name} {version} is not uploaded", f"packages.{name}"))
            continue
        entry = {"name": name, "version": version, "sha256": package.sha256}
        granted.append({**entry, "language": package.language})
    clashes = _clashing_modules(granted, {p.sha256: p for p in await store.packages.list()})
    errors += [FieldError(m, "packages") for m in clashes]
    if errors:
        raise ValidationFailedError(errors)
    before = [f"{p['name']} {p['version']}" for p in row.packages or ()]
    row.packages = granted
    after = [f"{p['name']} {p['version']}" for p in granted]
    await store.changed(
        admin.key_id, tenant, "tenant.packages", tenant, {"before": before, "after": after}
    )
    await store.session.refresh(row)
    return tenant_public(row)


def _clashing_modules(granted: list[dict[str, str]], rows: dict[str, PackageRow]) -> list[str]:
    """Two granted Python packages that provide one module: which would a tool import?"""
    owner: dict[str, str] = {}
    clashes = []
    for entry in granted:
        row = rows[entry["sha256"]]
        for module in [row.name] if row.language == "javascript" else row.modules:
            key = f"{row.language}:{module}"
            if key in owner:
                clashes.append(f"{row.name} and {owner[key]} both provide {module!r}")
            owner[key] = row.name
    return clashes
