package dev.warden.bench.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The etcd command line of a member and where the binary is looked for; no etcd is started. */
class EtcdMemberTest {
    @TempDir
    Path dir;

    @Test
    void eachMemberKnowsTheWholeClusterAndKeepsFsync() {
        EtcdMember one = new EtcdMember("etcd1", 20001, 20002, dir.resolve("etcd1/data"));
        EtcdMember two = new EtcdMember("etcd2", 20003, 20004, dir.resolve("etcd2/data"));
        List<String> args = two.arguments(Path.of("/usr/bin/etcd"), List.of(one, two), "token-1");
        assertEquals("/usr/bin/etcd", args.get(0));
        assertTrue(args.contains("--name=etcd2"), args.toString());
        assertTrue(args.contains("--data-dir=" + dir.resolve("etcd2/data")), args.toString());
        assertTrue(args.contains("--listen-client-urls=http://127.0.0.1:20003"), args.toString());
        assertTrue(args.contains("--initial-advertise-peer-urls=http://127.0.0.1:20004"), args.toString());
        assertTrue(args.contains("--initial-cluster=etcd1=http://127.0.0.1:20002,etcd2=http://127.0.0.1:20004"),
                args.toString());
        assertTrue(args.contains("--initial-cluster-token=token-1"), args.toString());
        assertFalse(args.stream().anyMatch(a -> a.contains("unsafe-no-fsync")), "fsync stays on: " + args);
    }

    @Test
    void binaryFromEtcdBinOrThePath() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path etcd = Files.createFile(bin.resolve("etcd"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Path notExecutable = Files.createFile(dir.resolve("plain"));
        assertEquals(Optional.of(etcd), EtcdBinary.locate(Map.of("PATH", "/nonexistent:" + bin)));
        assertEquals(Optional.of(etcd), EtcdBinary.locate(Map.of(EtcdBinary.ENV, etcd.toString())));
        assertEquals(Optional.empty(), EtcdBinary.locate(Map.of(EtcdBinary.ENV, notExecutable.toString(),
                "PATH", bin.toString())), "an explicit ETCD_BIN that is no binary is not silently replaced");
        assertEquals(Optional.empty(), EtcdBinary.locate(Map.of("PATH", "/nonexistent")));
    }

    @Test
    void workloadsPairWithTheComparisonScenarios() {
        assertEquals(Optional.of(EtcdWorkload.PUT), EtcdWorkload.pairedWith("setData"));
        assertEquals(Optional.of(EtcdWorkload.CAS_TXN), EtcdWorkload.pairedWith("casSetData"));
        assertEquals(Optional.of(EtcdWorkload.WATCH_FANOUT), EtcdWorkload.pairedWith("fanout100"));
        assertEquals(Optional.empty(), EtcdWorkload.pairedWith("exists"));
    }
}
