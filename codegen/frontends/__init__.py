"""Frontends: one per source language, each turning spec sources into an ``ir.Protocol``."""
