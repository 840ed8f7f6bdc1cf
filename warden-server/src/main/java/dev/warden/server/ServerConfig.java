package dev.warden.server; public final class ServerConfig { public String clientPortAddress() { return "127.0.0.1"; } }
