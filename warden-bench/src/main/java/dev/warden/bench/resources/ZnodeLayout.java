package dev.warden.bench.resources;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the probe puts znode {@code i}: {@code /app/region-<r>/service-<s>/node-<i>}, with 1,000
 * nodes per service and 100 services per region, so 1M znodes make 10 regions, 1,000 services
 * and paths of about 40 characters, as in a service registry.
 */
final class ZnodeLayout {
    static final String ROOT = "/app";
    static final int NODES_PER_SERVICE = 1000;
    static final int SERVICES_PER_REGION = 100;

    private ZnodeLayout() {
    }

    static String servicePath(int service) {
        return ROOT + "/region-" + service / SERVICES_PER_REGION + "/service-" + service;
    }

    static String nodePath(int i) {
        return servicePath(i / NODES_PER_SERVICE) + "/node-" + i;
    }

    /** The parents that must exist before node {@code i}, empty unless {@code i} starts a new one. */
    static List<String> parentsToCreateBefore(int i) {
        List<String> parents = new ArrayList<>(3);
        if (i == 0) {
            parents.add(ROOT);
        }
        if (i % NODES_PER_SERVICE == 0) {
            int service = i / NODES_PER_SERVICE;
            if (service % SERVICES_PER_REGION == 0) {
                parents.add(ROOT + "/region-" + service / SERVICES_PER_REGION);
            }
            parents.add(servicePath(service));
        }
        return parents;
    }

    /** Parent znodes a tree of {@code znodes} leaves has, counted so per-znode figures can include them. */
    static int parentCount(int znodes) {
        int services = (znodes + NODES_PER_SERVICE - 1) / NODES_PER_SERVICE;
        int regions = (services + SERVICES_PER_REGION - 1) / SERVICES_PER_REGION;
        return 1 + regions + services;
    }
}
