package dev.shortgate.system;

import java.time.Clock;

import com.github.benmanes.caffeine.cache.Ticker;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Time is injected everywhere, so tests move it by hand instead of sleeping. */
@Configuration(proxyBeanMethods = false)
class TimeConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    @ConditionalOnMissingBean
    Ticker ticker() {
        return Ticker.systemTicker();
    }
}
