package org.sue.sim;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Activity-driven evaluation: the combinational statements in partitions, each evaluated only when a value it reads
 * from outside changed (as ESSENT does).
 *
 * <p>Partitions are runs of statements in an evaluation order, so a partition only reads values of earlier
 * partitions, of itself, or of sources (registers, registered memory reads, banks' read words, top-level inputs).
 * A partition has a dirty flag: set when a source it reads changes (at the clock edge's commit, when an input is
 * written) or when an earlier partition's statement that it reads computes a narrow value different from before (a
 * wide value marks its readers whenever it is computed); cleared when the partition runs. So a value that did not
 * change stops the evaluation there.
 *
 * <p>Clustering: a statement's <em>support</em> is the set of sources its value is a function of. Statements of
 * equal support form a group; a statement depends only on statements of a smaller support or of its own group, so
 * groups ordered by support size, statements in their order inside a group, is an evaluation order. Neighbouring
 * groups share a partition while it stays small and the union of their supports stays near its largest member's:
 * statements that change together run together.
 */
final class ActivityPartition {
    /** Partitions: statement indices in evaluation order. */
    final List<List<Integer>> parts = new ArrayList<>();
    /** Per statement, the later partitions that read its value (empty: no change check needed). */
    final List<TreeSet<Integer>> consumers = new ArrayList<>();
    /** Per source, the partitions that read it. */
    final List<TreeSet<Integer>> sourceReaders = new ArrayList<>();

    /**
     * @param chars    per statement, its source length
     * @param supports per statement, its support (canonical: equal sets are one object)
     * @param reads    per statement, what it reads: statement indices, and sources s as {@code -(s + 1)}
     */
    ActivityPartition(int[] chars, List<BitSet> supports, List<int[]> reads, int sources, int chunkChars) {
        int n = chars.length;
        Map<BitSet, List<Integer>> groups = new IdentityHashMap<>();
        for (int i = 0; i < n; i++) {
            groups.computeIfAbsent(supports.get(i), k -> new ArrayList<>()).add(i);
        }
        List<BitSet> order = new ArrayList<>(groups.keySet());
        order.sort(Comparator.comparingInt(BitSet::cardinality).thenComparingInt(s -> groups.get(s).get(0)));
        merge(order, groups, chars, chunkChars);

        int[] partOf = new int[n];
        for (int p = 0; p < parts.size(); p++) {
            for (int i : parts.get(p)) {
                partOf[i] = p;
            }
        }
        for (int i = 0; i < n; i++) {
            consumers.add(new TreeSet<>());
        }
        for (int s = 0; s < sources; s++) {
            sourceReaders.add(new TreeSet<>());
        }
        for (int j = 0; j < n; j++) {
            for (int r : reads.get(j)) {
                if (r < 0) {
                    sourceReaders.get(-r - 1).add(partOf[j]);
                } else if (partOf[r] != partOf[j]) {
                    if (partOf[r] > partOf[j]) {
                        throw new IllegalStateException("simulator: partition order broken at statement " + j);
                    }
                    consumers.get(r).add(partOf[j]);
                }
            }
        }
    }

    /** Consecutive groups (in support-size order) share a partition while it stays small and its union narrow. */
    private void merge(List<BitSet> order, Map<BitSet, List<Integer>> groups, int[] chars, int chunkChars) {
        List<Integer> cur = new ArrayList<>();
        BitSet union = new BitSet();
        int size = 0;
        int widest = 0;
        for (BitSet g : order) {
            List<Integer> members = groups.get(g);
            int groupChars = members.stream().mapToInt(i -> chars[i]).sum();
            BitSet grown = (BitSet) union.clone();
            grown.or(g);
            int w = Math.max(widest, g.cardinality());
            boolean fits = size + groupChars <= chunkChars && grown.cardinality() <= w + w / 2 + 4;
            if (!cur.isEmpty() && !fits) {
                parts.add(cur);
                cur = new ArrayList<>();
                size = 0;
                w = g.cardinality();
                grown = (BitSet) g.clone();
            }
            widest = w;
            union = grown;
            cur.addAll(members);
            size += groupChars;
        }
        if (!cur.isEmpty()) {
            parts.add(cur);
        }
    }
}
