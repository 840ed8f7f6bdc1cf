package dev.warden.server;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The cycles of a dependency graph between packages: its strongly connected components of more
 * than one package (Tarjan's algorithm), each as the sorted names of its packages. A package
 * that depends on itself is no cycle.
 */
final class PackageCycles {
    private final Map<String, Set<String>> dependsOn;
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> lowLink = new HashMap<>();
    private final Deque<String> stack = new ArrayDeque<>();
    private final Set<String> onStack = new HashSet<>();
    private final List<Set<String>> cycles = new ArrayList<>();

    private PackageCycles(Map<String, Set<String>> dependsOn) {
        this.dependsOn = dependsOn;
    }

    static List<Set<String>> of(Map<String, Set<String>> dependsOn) {
        PackageCycles finder = new PackageCycles(dependsOn);
        for (String pkg : new TreeSet<>(dependsOn.keySet())) {
            if (!finder.index.containsKey(pkg)) {
                finder.visit(pkg);
            }
        }
        return finder.cycles;
    }

    // recursion depth is at most the number of packages (a few dozen)
    private void visit(String pkg) {
        index.put(pkg, index.size());
        lowLink.put(pkg, index.get(pkg));
        stack.push(pkg);
        onStack.add(pkg);
        for (String next : dependsOn.getOrDefault(pkg, Set.of())) {
            if (!index.containsKey(next)) {
                visit(next);
                lowLink.put(pkg, Math.min(lowLink.get(pkg), lowLink.get(next)));
            } else if (onStack.contains(next)) {
                lowLink.put(pkg, Math.min(lowLink.get(pkg), index.get(next)));
            }
        }
        if (lowLink.get(pkg).equals(index.get(pkg))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                onStack.remove(member);
                component.add(member);
            } while (!member.equals(pkg));
            if (component.size() > 1) {
                cycles.add(component);
            }
        }
    }
}
