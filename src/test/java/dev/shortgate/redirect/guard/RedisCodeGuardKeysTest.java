package dev.shortgate.redirect.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import com.github.benmanes.caffeine.cache.Ticker;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;

/** Where the unknown-code guard keeps its keys in Redis, and that a Cluster keeps them together. */
class RedisCodeGuardKeysTest {

    @Test
    void theBitmapAndItsBuildLockShareOneClusterSlot() {
        for (String prefix : List.of("sg:", "tenant-a:", "sgit:1234abcd:")) {
            List<String> keys = new RedisCodeGuard(
                            null, null, null, BloomShape.of(10_000_000, 0.001), prefix, Ticker.systemTicker())
                    .keys();

            assertThat(keys).hasSize(2).allSatisfy(key -> assertThat(key).startsWith(prefix));
            assertThat(SlotHash.getSlot(keys.get(1)))
                    .as("lock %s beside bitmap %s", keys.get(1), keys.get(0))
                    .isEqualTo(SlotHash.getSlot(keys.get(0)));
        }
    }

    @Test
    void guardsOfDifferentDeploymentsOnOneClusterDoNotShareAKey() {
        BloomShape shape = BloomShape.of(1_000, 0.01);
        String a = new RedisCodeGuard(null, null, null, shape, "a:", Ticker.systemTicker())
                .keys()
                .get(0);
        String b = new RedisCodeGuard(null, null, null, shape, "b:", Ticker.systemTicker())
                .keys()
                .get(0);

        assertThat(a).isNotEqualTo(b);
    }
}
