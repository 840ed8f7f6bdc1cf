package dev.warden.examples.hbase;

/**
 * Where the example cluster keeps its state, all under one root:
 * {@code master} (ephemeral, the active master's name), {@code rs/<server>} (ephemeral region
 * server registrations), {@code region-assignments/<region>} (the server holding a region) and
 * {@code meta-region-server} (where clients find the META region).
 */
record ClusterPaths(String root) {
    static final String META_REGION = "meta";

    String master() {
        return root + "/master";
    }

    String regionServers() {
        return root + "/rs";
    }

    String assignments() {
        return root + "/region-assignments";
    }

    String assignment(String region) {
        return assignments() + "/" + region;
    }

    String metaLocation() {
        return root + "/meta-region-server";
    }
}
