#pragma once
// Text inside XML and HTML documents (SimGrid platforms, report pages).

#include <string>
#include <string_view>

namespace mapsim {

/// `text` with & < > " ' as character references, safe in element content and in quoted
/// attribute values of XML and HTML alike (' as &#39;, which both read).
std::string escape_markup(std::string_view text);

}  // namespace mapsim
