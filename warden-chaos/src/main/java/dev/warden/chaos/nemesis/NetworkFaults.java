package dev.warden.chaos.nemesis;

import dev.warden.chaos.net.LinkState;
import dev.warden.chaos.net.LinkTable;
import dev.warden.chaos.run.ChaosEnsemble;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/** The nemesis's faults between members: partitions of every shape, and slow or lossy peer links. */
final class NetworkFaults {
    private final ChaosEnsemble ensemble;
    /** The nemesis's own generator, shared so a seed draws the same faults as before. */
    private final Random random;

    NetworkFaults(ChaosEnsemble ensemble, Random random) {
        this.ensemble = ensemble;
        this.random = random;
    }

    List<List<Integer>> randomHalves() {
        List<Integer> ids = new ArrayList<>(ensemble.ids());
        Collections.shuffle(ids, random);
        int minority = 1 + random.nextInt(Math.max(1, (ids.size() - 1) / 2));
        return List.of(List.copyOf(ids.subList(0, minority)), List.copyOf(ids.subList(minority, ids.size())));
    }

    /** Picks the groups of a partition when it is applied. */
    interface Groups {
        List<List<Integer>> pick() throws Exception;
    }

    /** Blocks every link, both ways, between members of different groups. */
    private void cut(List<List<Integer>> groups) {
        LinkTable links = ensemble.network().links();
        for (List<Integer> a : groups) {
            for (List<Integer> b : groups) {
                if (a == b) {
                    continue;
                }
                for (int from : a) {
                    for (int to : b) {
                        links.set(from, to, new LinkState(true, 0, 0, 0));
                    }
                }
            }
        }
    }

    private void healLinks() {
        // only member-to-member links: a client cut-off is not ours to heal
        LinkTable links = ensemble.network().links();
        for (int from : ensemble.ids()) {
            for (int to : ensemble.ids()) {
                links.set(from, to, LinkState.CLEAN);
            }
        }
        links.republish();
    }

    Fault partition(Groups groups) {
        return new Fault() {
            @Override
            public String apply() throws Exception {
                List<List<Integer>> picked = groups.pick();
                cut(picked);
                return "groups " + picked;
            }

            @Override
            public List<String> heal() {
                healLinks();
                return List.of();
            }
        };
    }

    Fault bridge() {
        return new Fault() {
            @Override
            public String apply() {
                List<Integer> ids = new ArrayList<>(ensemble.ids());
                Collections.shuffle(ids, random);
                int bridge = ids.remove(0);
                List<Integer> left = ids.subList(0, ids.size() / 2);
                List<Integer> right = ids.subList(ids.size() / 2, ids.size());
                cut(List.of(List.copyOf(left), List.copyOf(right)));
                return "bridge member " + bridge + " between " + left + " and " + right;
            }

            @Override
            public List<String> heal() {
                healLinks();
                return List.of();
            }
        };
    }

    Fault oneWay() {
        return new Fault() {
            @Override
            public String apply() {
                int from = ensemble.leader().orElse(ensemble.ids().get(0));
                LinkTable links = ensemble.network().links();
                for (int to : ensemble.ids()) {
                    if (to != from) {
                        links.set(from, to, new LinkState(true, 0, 0, 0));
                    }
                }
                return "member " + from + " (leader) cannot send to the others; they can send to it";
            }

            @Override
            public List<String> heal() {
                healLinks();
                return List.of();
            }
        };
    }

    Fault flapping() {
        return new Fault() {
            private Thread flapper;

            @Override
            public String apply() {
                long seed = random.nextLong();
                flapper = new Thread(() -> {
                    Random flaps = new Random(seed);
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            healLinks();
                            if (flaps.nextBoolean()) {
                                List<Integer> ids = new ArrayList<>(ensemble.ids());
                                Collections.shuffle(ids, flaps);
                                int minority = 1 + flaps.nextInt(Math.max(1, (ids.size() - 1) / 2));
                                cut(List.of(List.copyOf(ids.subList(0, minority)),
                                        List.copyOf(ids.subList(minority, ids.size()))));
                            }
                            Thread.sleep(500 + flaps.nextInt(1_500));
                        }
                    } catch (InterruptedException e) {
                        // healed
                    } catch (java.io.UncheckedIOException e) {
                        if (!Thread.currentThread().isInterrupted()) {
                            throw e;
                        }
                        // healed while a rule was changing: the heal asks the kernel and sets every rule
                    }
                }, "nemesis-flapping");
                flapper.setDaemon(true);
                flapper.start();
                return "random partitions every 0.5-2 s (seed " + seed + ")";
            }

            @Override
            public List<String> heal() throws InterruptedException {
                flapper.interrupt();
                flapper.join();
                healLinks();
                return List.of();
            }
        };
    }

    Fault links(LinkState state) {
        return new Fault() {
            @Override
            public String apply() {
                for (int from : ensemble.ids()) {
                    for (int to : ensemble.ids()) {
                        if (from != to) {
                            ensemble.network().links().set(from, to, state);
                        }
                    }
                }
                return "every peer link " + state;
            }

            @Override
            public List<String> heal() {
                healLinks();
                return List.of();
            }
        };
    }
}
