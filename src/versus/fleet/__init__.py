"""A lab for a team: hosts that share a session through PostgreSQL (docs/fleet.md).

`coordinator` hands out the rounds the scheduler chooses; `worker` runs them on its host; `hosts`
judges what the hosts measured, each host a block. Nothing is imported here, so that the session's
lifecycle can use the coordinator while the worker uses the session's stored format.
"""
