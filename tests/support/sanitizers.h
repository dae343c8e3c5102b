/* Whether the program is built under ThreadSanitizer or AddressSanitizer
   (GCC's macros, or clang's __has_feature): UNDER_TSAN and UNDER_ASAN, 1
   or 0, for tests that must do less where a sanitizer cannot follow. */
#ifndef SGK_TESTS_SANITIZERS_H
#define SGK_TESTS_SANITIZERS_H

#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#ifndef UNDER_TSAN
#define UNDER_TSAN 0
#endif
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#endif
