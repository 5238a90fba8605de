"""Loads FirstToken's LiteLLM export into LiteLLM's own Router, offline.

The config is tests/golden/litellm-router.yaml, the file the golden test
pins. LiteLLM reads it with no request sent: every socket connect fails
loudly, and the model cost map is LiteLLM's local copy. The test checks what
the Router reads back: the deployments of each model group, their order, their
stream timeouts, the environment variables their keys come from, and the
latency-based routing strategy with its TTFT percentile.

Run by scripts/test-litellm.sh (make test-native), with the pinned LiteLLM
that scripts/setup.sh installs in tools/.venv-litellm.
"""

import os
import pathlib
import socket
import sys

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
os.environ["LITELLM_TELEMETRY"] = "False"


def refuse(*_args, **_kwargs):
    raise AssertionError("the config load tried to open a network connection")


socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse

import yaml  # noqa: E402
from litellm import Router  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
config_path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests/golden/litellm-router.yaml"
config = yaml.safe_load(config_path.read_text(encoding="utf-8"))

# The keys the config names by variable: placeholders here, never keys.
variables = set()
for deployment in config["model_list"]:
    key = deployment["litellm_params"].get("api_key", "")
    assert key.startswith("os.environ/"), f"api_key must name a variable, not a key: {key!r}"
    variables.add(key.removeprefix("os.environ/"))
for variable in variables:
    os.environ[variable] = f"placeholder-for-{variable.lower()}"

router = Router(model_list=config["model_list"], **config["router_settings"])

assert router.routing_strategy == "latency-based-routing", router.routing_strategy
routing_args = router.lowestlatency_logger.routing_args
assert routing_args.ttft_percentile == 0.95, routing_args

read_back = router.get_model_list()
assert len(read_back) == len(config["model_list"]), (len(read_back), len(config["model_list"]))

by_id = {d["model_info"]["id"]: d for d in read_back}
for written in config["model_list"]:
    deployment_id = written["model_info"]["id"]
    loaded = by_id[deployment_id]
    params = loaded["litellm_params"]
    assert loaded["model_name"] == written["model_name"], deployment_id
    assert params["model"] == written["litellm_params"]["model"], deployment_id
    assert params["api_base"] == written["litellm_params"]["api_base"], deployment_id
    assert params["order"] == written["litellm_params"]["order"], deployment_id
    assert params.get("stream_timeout") == written["litellm_params"].get("stream_timeout"), deployment_id
    # LiteLLM resolves os.environ/ references when it builds its clients;
    # whatever it keeps, it is never a key from the file.
    assert "sk-" not in str(params.get("api_key", "")), deployment_id

groups = {}
for deployment in read_back:
    groups.setdefault(deployment["model_name"], []).append(
        (deployment["litellm_params"]["order"], deployment["model_info"]["firsttoken_label"])
    )
expected_groups = {}
for written in config["model_list"]:
    expected_groups.setdefault(written["model_name"], []).append(
        (written["litellm_params"]["order"], written["model_info"]["firsttoken_label"])
    )
assert groups == expected_groups, (groups, expected_groups)

# The deployments LiteLLM would pick first are the order-1 ones.
for group, members in groups.items():
    firsts = sorted(label for order, label in members if order == min(o for o, _ in members))
    print(f"{group}: order 1 = {firsts}; all = {sorted(members)}")

print(f"LiteLLM Router read {len(read_back)} deployments in {len(groups)} groups from {config_path.name}: ok")
