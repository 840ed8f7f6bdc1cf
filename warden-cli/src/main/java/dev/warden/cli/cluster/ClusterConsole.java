package dev.warden.cli.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * What {@code warden cluster} does while the ensemble runs: says when a member dies (with its
 * exit status and last error line), and takes commands on stdin: {@code status},
 * {@code restart N}, {@code stop N}, {@code kill N}, {@code start N}.
 */
final class ClusterConsole {
    static final long WATCH_INTERVAL_MS = 1000;

    private final LocalCluster cluster;
    private final PrintWriter out;
    private final Set<Integer> reportedDead = new HashSet<>();

    ClusterConsole(LocalCluster cluster, PrintWriter out) {
        this.cluster = cluster;
        this.out = out;
    }

    /** Reports members that died since the last call; called every {@link #WATCH_INTERVAL_MS}. */
    synchronized void reportDeaths() {
        for (int id : cluster.ids()) {
            MemberProcess member = cluster.member(id);
            if (member.died()) {
                if (reportedDead.add(id)) {
                    print(member.describe() + ". Type 'restart " + id + "' to start it again.");
                }
            } else {
                reportedDead.remove(id);
            }
        }
    }

    /** Runs one command line; returns false for an empty or unknown one (after saying so). */
    synchronized boolean execute(String line) {
        String[] words = line.strip().split("\\s+");
        if (words.length == 0 || words[0].isEmpty()) {
            return false;
        }
        try {
            switch (words[0]) {
                case "status" -> {
                    cluster.ids().forEach(id -> print(cluster.member(id).describe() + " " + cluster.mode(id)));
                    return true;
                }
                case "restart", "stop", "kill", "start" -> {
                    int id = memberId(words);
                    switch (words[0]) {
                        case "restart" -> {
                            if (cluster.member(id).isServingCandidate()) {
                                cluster.stop(id);
                            }
                            cluster.start(id);
                        }
                        case "stop" -> cluster.stop(id);
                        case "kill" -> cluster.kill9(id);
                        default -> cluster.start(id);
                    }
                    reportedDead.remove(id);
                    print("member " + id + ": " + words[0] + " done");
                    return true;
                }
                default -> {
                    print("commands: status, restart N, stop N, kill N, start N");
                    return false;
                }
            }
        } catch (IOException | RuntimeException e) {
            print(words[0] + " failed: " + e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private int memberId(String[] words) {
        if (words.length != 2) {
            throw new IllegalArgumentException("usage: " + words[0] + " N (a member id " + cluster.ids() + ")");
        }
        try {
            int id = Integer.parseInt(words[1]);
            if (cluster.ids().contains(id)) {
                return id;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("no member " + words[1] + "; members are " + cluster.ids());
    }

    /** Reads commands from {@code in} until it ends; meant for a daemon thread. */
    void readCommands(BufferedReader in) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                execute(line);
            }
        } catch (IOException e) {
            // stdin closed: the ensemble keeps running until stopped
        }
    }

    private void print(String line) {
        out.println(line);
        out.flush();
    }

    static Duration watchInterval() {
        return Duration.ofMillis(WATCH_INTERVAL_MS);
    }
}
