"""The baseline for the HTTP benchmark: a bare FastAPI endpoint returning a call envelope."""

from fastapi import FastAPI

app = FastAPI()
BODY = {
    "success": True,
    "toolName": "echo",
    "executionTime": 0.1,
    "result": {"success": True, "message": "hi 1"},
}


@app.post("/v1/sessions/{sid}/calls")
async def call(sid: str) -> dict:
    return BODY
