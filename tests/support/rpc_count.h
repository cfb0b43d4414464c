// Test support: the number of RPCs of a generated gRPC service, known at compile time.
//
// protoc's C++ plugin types `Svc::CallbackService` as one `WithCallbackMethod_X<...>` wrapper
// per RPC around `Svc::Service`, in the order of the proto. Counting the wrappers counts the
// RPCs, so a test table can `static_assert` that it has a row for each: adding an RPC to a
// proto then breaks the build of the test until the table has its row.
#pragma once

#include <type_traits>

namespace arena::testing {

template <class Service>
struct RpcCount : std::integral_constant<int, 0> {};

template <template <class> class WithMethod, class Base>
struct RpcCount<WithMethod<Base>> : std::integral_constant<int, 1 + RpcCount<Base>::value> {};

// RpcCountOf<v1::BotService>::value == 1.
template <class GeneratedService>
using RpcCountOf = RpcCount<typename GeneratedService::CallbackService>;

}  // namespace arena::testing
