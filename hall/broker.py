"""Where the MQTT broker is, and the paho client settings every hall connection shares.

A broker address is a URL, ``mqtt://HOST[:PORT]`` (port 1883 by default); TLS
(``mqtts://``) is not supported yet and is refused with a clear message rather than
silently sent in the clear.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt

from hall.errors import HallError

DEFAULT_PORT = 1883
MQTT_KEEPALIVE_S = 10  # a node that dies silently is declared offline (last will) within 1.5× this
RECONNECT_MIN_S = 1
RECONNECT_MAX_S = 8  # a table is never out of touch long after the broker is back


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int = DEFAULT_PORT

    def __str__(self) -> str:
        return f"mqtt://{self.host}:{self.port}"


def parse_broker(url: str) -> BrokerAddress:
    """``mqtt://HOST[:PORT]`` → address, or a ``HallError`` that says what is wrong."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise HallError("broker_address", url=url, why=exc) from None
    if parts.scheme == "mqtts":
        raise HallError("broker_tls", url=url)
    if parts.scheme != "mqtt" or not parts.hostname or parts.path not in ("", "/") or parts.query:
        raise HallError("broker_form", url=url)
    return BrokerAddress(parts.hostname, port or DEFAULT_PORT)


def check_reachable(broker: BrokerAddress, timeout: float = 5.0) -> None:
    """Fail fast, in one line, when nothing listens at the address: a typo in a command
    line should not look like a hall waiting for its broker. (Once running, the clients
    ride out broker outages by themselves.)"""
    try:
        with socket.create_connection((broker.host, broker.port), timeout=timeout):
            pass
    except OSError as exc:
        why = exc.strerror or exc.__class__.__name__
        if isinstance(exc, ConnectionRefusedError):
            raise HallError("broker_refused", broker=broker, why=why) from None
        raise HallError("broker_unreachable", broker=broker, why=why) from None


def new_client(client_id: str, *, persistent: bool = False, manual_ack: bool = False) -> mqtt.Client:
    """A paho client as the hall uses them: MQTT 3.1.1, reconnecting with backoff.

    ``persistent`` keeps the broker-side session (subscriptions and queued QoS 1
    messages) across disconnections, which needs a fixed client id."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                         clean_session=not persistent, protocol=mqtt.MQTTv311, manual_ack=manual_ack)
    client.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)
    return client


def connect(client: mqtt.Client, broker: BrokerAddress) -> None:
    """Connect in the background and keep reconnecting: paho's own thread runs the
    network loop and retries, so a broker that is down at start is not an error."""
    client.connect_async(broker.host, broker.port, keepalive=MQTT_KEEPALIVE_S)
    client.loop_start()
